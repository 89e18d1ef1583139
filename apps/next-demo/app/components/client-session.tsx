"use client"
// The session as the browser sees it (`useSession`), and a rename through the client's `update()`.
import { useSession } from "@authlib/nextjs/react"

export function ClientSession() {
  const { data, status, update } = useSession()
  return (
    <section>
      <h2>In a client component</h2>
      <p id="client-status">{status}</p>
      <p id="client-name">{data?.user?.name ?? ""}</p>
      {data ? (
        <form
          onSubmit={async (event) => {
            event.preventDefault()
            const name = new FormData(event.currentTarget).get("name")
            await update({ name: String(name) })
          }}
        >
          <input id="client-rename-name" name="name" aria-label="New name (client)" />
          <button id="client-rename" type="submit">Rename from the client</button>
        </form>
      ) : null}
    </section>
  )
}
