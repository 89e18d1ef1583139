import { auth } from "../../auth"

export const dynamic = "force-dynamic"

// The proxy lets only signed-in users reach this page; auth() here reads the same session.
export default async function Protected() {
  const session = await auth()
  return (
    <main>
      <h1>Protected</h1>
      <p id="protected-user">{session?.user?.email}</p>
    </main>
  )
}
