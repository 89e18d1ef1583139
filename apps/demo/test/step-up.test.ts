import { describe, it } from "vitest"
import { stepUpJourney } from "./harness/step-up-flow.js"
import { useDemo } from "./harness/use-demo.js"

/** A second factor stays fresh for 4 seconds here (10 minutes by default), so the journey waits seconds, not minutes. */
const FRESH_AGE = 4
const demo = useDemo({ AUTH_TWO_FACTOR_FRESH_AGE: String(FRESH_AGE) })

describe("step-up on the account page (JWT sessions)", () => {
  it("after the fresh window, adding and deleting a passkey ask 'Confirm it is you'; a code, a backup code and a passkey each let the change through", async () => {
    await stepUpJourney(demo, FRESH_AGE, "jwt")
  }, 120_000)
})
