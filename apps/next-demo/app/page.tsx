import { auth } from "../auth"
import { rename } from "./actions"
import { ClientSession } from "./components/client-session"

export const dynamic = "force-dynamic"

export default async function Home() {
  const session = await auth()
  return (
    <main>
      <h1>authlib demo (Next.js)</h1>
      <section>
        <h2>In a server component</h2>
        <p id="server-status">{session ? "signed in" : "signed out"}</p>
        <p id="server-name">{session?.user?.name ?? ""}</p>
        <p id="server-email">{session?.user?.email ?? ""}</p>
        {session ? (
          <form action={rename}>
            <input id="server-rename-name" name="name" aria-label="New name (server action)" />
            <button id="server-rename" type="submit">Rename in a server action</button>
          </form>
        ) : (
          <p>
            <a href="/sign-in">Sign in</a> to see your session here.
          </p>
        )}
      </section>
      <ClientSession />
    </main>
  )
}
