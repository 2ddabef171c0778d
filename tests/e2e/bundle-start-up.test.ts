// What a bin evaluates when it loads, every call pays. An `Intl` formatter made at load starts ICU: the full UTC date
// class of @date-fns/utc made three and cost +121 M instructions (~30 ms) on every CLI call, `--version` included.
import { readFileSync } from 'node:fs';
import { BIN } from '../helpers';

describe('bin bundles', () => {
  it.each(Object.entries(BIN))(
    '%s makes no Intl formatter (ICU stays unloaded unless a command needs it)',
    (_, bin) => {
      // The loader (`<bin>.cjs`) reads its bundle from `<bin>.bundle` beside it.
      expect(readFileSync(bin.replace(/\.cjs$/, '.bundle'), 'utf8')).not.toMatch(/new Intl\.\w+/);
    },
  );
});
