/**
 * Next's `redirect`, for server actions and route handlers, imported from the module Next itself
 * resolves `next/navigation` to on the server (`navigation.react-server`). Not `next/navigation`:
 * Next has no `exports` map, so Node (which loads this package unbundled for the Pages Router)
 * needs a file name, and the file `next/navigation` names is the browser's module, whose router
 * contexts a route handler bundle cannot load.
 */
export { redirect } from "next/dist/client/components/navigation.react-server.js"
