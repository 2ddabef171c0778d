// Draws the plugin's icon, plugin/.claude-plugin/icon.png (committed; `claude plugin validate` looks for one: a square
// PNG of 512 to 2048 px): a paused bar and a play mark, a session parked then resumed. Run it after changing the
// drawing: `node scripts/plugin-icon.mjs`. Plain Node (zlib), no image library.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
/** Samples per pixel side, for smooth edges. */
const SAMPLES = 4;
const BACKGROUND = [27, 42, 65];
const PAUSED = [242, 177, 52];
const RESUMED = [76, 195, 138];

/** The colour at a point, or null outside the icon's rounded square. */
function colourAt(x, y) {
  if (!inRoundedBox(x, y, 0, 0, SIZE, SIZE, 104)) return null;
  if (inRoundedBox(x, y, 136, 156, 196, 356, 14)) return PAUSED;
  // The play mark: a triangle from (236, 156) and (236, 356) to (392, 256).
  if (x >= 236 && Math.abs(y - 256) <= 100 * (1 - (x - 236) / 156)) return RESUMED;
  return BACKGROUND;
}

function inRoundedBox(x, y, x0, y0, x1, y1, radius) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
  const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** RGBA rows, each after PNG's filter byte (0: none). */
function pixels() {
  const row = SIZE * 4 + 1;
  const raw = Buffer.alloc(SIZE * row);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++)
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (colour === null) continue;
          covered++;
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
        }
      const at = y * row + 1 + x * 4;
      for (let c = 0; c < 3; c++) raw[at + c] = covered === 0 ? 0 : Math.round(sum[c] / covered);
      raw[at + 3] = Math.round((255 * covered) / SAMPLES ** 2);
    }
  }
  return raw;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bits per channel
header[9] = 6; // RGBA
writeFileSync(
  'plugin/.claude-plugin/icon.png',
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
