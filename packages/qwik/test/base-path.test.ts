/**
 * The binding mounts core where core says `basePath` is: `"/"`, `"auth"`, `"/auth/"` and `"/a/b"`
 * answer the same routes as `Auth()` does, and the app's own pages stay the app's.
 */
import { describe, expect, it } from "vitest"
import { fakeEvent } from "./harness/fake-event.js"
import { ORIGIN, testConfig } from "./harness/config.js"
import { handle, setup } from "./harness/setup.js"

describe.each([["/", ""], ["auth", "/auth"], ["/auth/", "/auth"], ["/a/b", "/a/b"]])("basePath %j", (basePath, normal) => {
  it("core answers its routes under the mount point; the app's pages pass through", async () => {
    const { auth } = setup(testConfig({ basePath }))
    const ev = fakeEvent(`${ORIGIN}${normal}/providers`)
    expect(await handle(auth, ev)).toBeUndefined()
    expect(ev.recorded.sent?.status).toBe(200)
    expect(Object.keys((await ev.recorded.sent!.json()) as object)).toContain("password")
    const page = fakeEvent(`${ORIGIN}/account/`)
    expect(await handle(auth, page)).toBeUndefined()
    expect(page.recorded.sent).toBeUndefined()
  })
})
