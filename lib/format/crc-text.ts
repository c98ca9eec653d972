/** A CRC-32 as every message and listing prints it: hex, 8 digits, as file formats write them (0x8db9b002). */
export function crcText(crc: number): string {
  return `0x${(crc >>> 0).toString(16).padStart(8, '0')}`;
}
