import { describe, it } from "vitest"
import { twoFactorJourney } from "./harness/two-factor-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("two-step verification on the demo (JWT sessions)", () => {
  it("turns it on from the account page; password, e-mail link and Demo IdP sign-ins stop for a code or a backup code; new backup codes; off", async () => {
    await twoFactorJourney(demo, "jwt")
  }, 120_000)
})
