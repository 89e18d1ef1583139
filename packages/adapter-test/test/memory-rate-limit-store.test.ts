/** Core's default store passes the store contract. */
import { MemoryRateLimitStore } from "@authlib/core"
import { runRateLimitStoreTests } from "../src/index.js"

runRateLimitStoreTests({ name: "MemoryRateLimitStore (core's default)", store: () => new MemoryRateLimitStore(), windowMs: 200 })
