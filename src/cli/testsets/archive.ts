/**
 * Reading the archives sacreBLEU's test sets come in (`.tgz`/`.tar.gz` and `.zip`), in memory (the largest is a few
 * tens of MB). Small readers of our own rather than a dependency: the sets' tar files are plain ustar/GNU tar
 * (long names as GNU `L` records or pax `path`), their zip files are stored or deflated entries, which zlib inflates.
 * Links, devices and zip64 are not needed by any set and are skipped or refused; an entry whose name would leave
 * the extraction folder (absolute, or with `..`) is refused.
 */
import { gunzipSync, inflateRawSync } from 'node:zlib';

/** One file of an archive: its relative path (`/`-separated) and bytes. Folders are implied by the paths. */
export interface ArchiveFile {
  readonly path: string;
  readonly data: Buffer;
}

/** Why an archive cannot be read. */
export class ArchiveError extends Error {}

function safePath(name: string): string | null {
  const path = name.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (path === '' || path === '.') return null;
  if (path.startsWith('/') || path.split('/').includes('..')) throw new ArchiveError(`unsafe entry name ${JSON.stringify(name)}`);
  return path;
}

function cString(buf: Buffer, start: number, length: number): string {
  const end = buf.indexOf(0, start);
  return buf.toString('utf8', start, end < 0 || end > start + length ? start + length : end);
}

function octal(buf: Buffer, start: number, length: number): number {
  // GNU base-256 sizes (first byte 0x80) for entries over 8 GiB never occur here.
  if (buf[start] & 0x80) throw new ArchiveError('tar entry larger than 8 GiB');
  const text = cString(buf, start, length).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

/** The regular files of a tar archive (gzipped or not). */
export function readTar(archive: Buffer): ArchiveFile[] {
  const tar = archive[0] === 0x1f && archive[1] === 0x8b ? gunzipSync(archive) : archive;
  const files: ArchiveFile[] = [];
  let offset = 0;
  let longName: string | null = null;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    if (Number.isNaN(size)) throw new ArchiveError(`bad tar header at byte ${offset}`);
    const type = String.fromCharCode(header[156] || 0x30);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new ArchiveError('tar archive ends inside an entry');
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (path) longName = path[1];
      continue;
    }
    if (type === 'g') continue;
    let name = longName;
    longName = null;
    if (name === null) {
      name = cString(header, 0, 100);
      const prefix = header.toString('latin1', 257, 262) === 'ustar' ? cString(header, 345, 155) : '';
      if (prefix !== '') name = `${prefix}/${name}`;
    }
    if (type !== '0' && type !== '7') continue; // folders are implied; links and devices are not needed
    const path = safePath(name);
    if (path !== null) files.push({ path, data: Buffer.from(data) });
  }
  return files;
}

/** The files of a zip archive (stored or deflated entries). */
export function readZip(zip: Buffer): ArchiveFile[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ArchiveError('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  if (at === 0xffffffff || count === 0xffff) throw new ArchiveError('zip64 archives are not supported');
  const files: ArchiveFile[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new ArchiveError('bad zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new ArchiveError(`bad zip local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new ArchiveError(`zip entry ${name} uses compression method ${method}`);
    const path = safePath(name);
    if (path !== null) files.push({ path, data });
  }
  return files;
}
