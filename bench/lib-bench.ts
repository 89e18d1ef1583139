/** The contract of a bench module: `run.ts` runs every module of its list, in one process. */
import type { MeasureOptions } from "./lib-measure.js"

export interface BenchModule {
  /** Short name, used to select modules: `pnpm bench jwt`. */
  name: string
  /** Measures and prints its tables; throws when the implementations under test disagree. */
  run(options: MeasureOptions): Promise<void>
}
