/** Column definitions every record table of the schema shares (`schema.ts`, `schema-organizations.ts`). */

/** Xata's record metadata columns: a text id (`rec_` + 32 hex digits by default), a version and two timestamps. */
export const META = `xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now()`

export const link = (table: string) => `text REFERENCES ${table}(xata_id) ON DELETE CASCADE`
