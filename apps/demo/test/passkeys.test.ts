import { describe, it } from "vitest"
import { passkeyJourney } from "./harness/passkey-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("passkeys on the demo (JWT sessions)", () => {
  it("adds, renames and deletes a passkey; signs in with the button and through autofill", async () => {
    await passkeyJourney(demo, "jwt")
  }, 90_000)
})
