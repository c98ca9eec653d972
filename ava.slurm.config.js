// The Slurm tests (npm run test:slurm, which starts a local cluster first); npm test leaves them out.
export default {
  files: ['dist/spec/slurm/**/*.test.js'],
  timeout: '10m',
};
