/**
 * `@authlib/redis`: Redis beside the database of an authlib app. `RedisRateLimitStore` shares
 * rate-limit counters between instances; `withRedisCache(adapter, { client })` puts a session cache
 * in front of any adapter (the database stays the source of truth).
 */
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from "./rate-limit-store.js"
export { AuthlibRedisError, type AuthlibRedisErrorCode } from "./errors.js"
export type { RedisClientLike } from "./client.js"
export { withRedisCache, type RedisCacheOptions } from "./cache/with-redis-cache.js"
export type { RedisCacheLogger } from "./cache/health.js"
