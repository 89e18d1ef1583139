import { describe, it } from "vitest"
import { passkeyJourney } from "./harness/passkey-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("passkeys on the demo (database sessions)", () => {
  it("adds, renames and deletes a passkey; signs in with the button and through autofill", async () => {
    await passkeyJourney(demo, "database")
  }, 90_000)
})
