// next-auth@5's side of `pnpm bench nextjs`: the same configuration on Auth.js v5 (database:
// @auth/pg-adapter on DATABASE_URL, the same PostgreSQL server as authlib's).
import PostgresAdapter from "@auth/pg-adapter"
import NextAuth from "next-auth"
import GitHub from "next-auth/providers/github"
import pg from "pg"

const database = process.env.BENCH_STRATEGY === "database"

export const { handlers, auth } = NextAuth({
  trustHost: true,
  providers: [GitHub({ clientId: "bench", clientSecret: "bench" })],
  session: { strategy: database ? "database" : "jwt" },
  ...(database ? { adapter: PostgresAdapter(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })) } : {}),
  callbacks: { authorized: ({ auth }) => !!auth },
})
