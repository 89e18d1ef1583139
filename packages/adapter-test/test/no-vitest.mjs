// `node --import ./test/no-vitest.mjs ...`: any import of `vitest` or `@vitest/*` throws, naming the
// module that asked for it. Used by test/memory-adapter-without-vitest.test.ts.
import { register } from "node:module"

const hooks = `export async function resolve(specifier, context, next) {
  if (/^(vitest|@vitest\\/)/.test(specifier)) throw new Error("vitest imported by " + context.parentURL)
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)
