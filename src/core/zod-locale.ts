// zod/mini loads no locale, so every message would read "Invalid input": each module of zod schemas imports this one.
// `en` alone adds ~17 KB to a bundle. The .cjs path: the package maps `v4/locales/*.js` to its ESM file even for
// require(), which jest cannot load (the bins' build takes the ESM file: scripts/build.mjs).
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.cjs';

z.config(en());
