// The modules of zod schemas that have generated parsers (scripts/parsers.mjs): each `X-schema.ts` declares its
// parse functions in `PARSERS`, written to `X-parsers.ts` beside it. The build and tests/unit/zod-codegen.test.ts
// read this list.
import { PARSERS as config } from '../src/core/config-schema';
import { PARSERS as state } from '../src/core/state-schema';
import { PARSERS as claude } from '../src/hooks/handlers/claude-schema';
import { PARSERS as seed } from '../src/hooks/seed/seed-schema';
import type { ParserDeclarations } from './zod-codegen';

export const SCHEMA_MODULES: Readonly<Record<string, ParserDeclarations>> = {
  'src/core/state-schema.ts': state,
  'src/core/config-schema.ts': config,
  'src/hooks/seed/seed-schema.ts': seed,
  'src/hooks/handlers/claude-schema.ts': claude,
};
