// authlib's side of `pnpm bench nextjs`: the configuration an Auth.js v5 app would have, on
// @authlib/nextjs. BENCH_STRATEGY picks the session strategy at start (database: the xata adapter
// on DATABASE_URL, the same PostgreSQL server as next-auth's).
import NextAuth from "@authlib/nextjs"
import GitHub from "@authlib/providers/github"
import { XataAdapter } from "@authlib/xata-adapter"
import pg from "pg"

const database = process.env.BENCH_STRATEGY === "database"

export const { handlers, auth } = NextAuth({
  trustHost: true,
  // A provider the bench never signs in with (the sessions are made beforehand).
  providers: [GitHub({ clientId: "bench", clientSecret: "bench" })],
  session: { strategy: database ? "database" : "jwt" },
  ...(database ? { adapter: XataAdapter(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })) } : {}),
  callbacks: { authorized: ({ auth }) => !!auth },
})
