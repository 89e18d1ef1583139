import { auth } from "../../auth"

export const dynamic = "force-dynamic"

// The same page for both libraries: the session read again in a server component after the proxy.
export default async function Protected() {
  const session = await auth()
  return (
    <main>
      <h1>Protected</h1>
      <p id="user">
        {session?.user?.name} ({session?.user?.email})
      </p>
    </main>
  )
}
