// The API types are generated once, in the SDK (sdk/src/schema.d.ts, `npm run openapi`).
export type * from "../../../sdk/src/schema";
