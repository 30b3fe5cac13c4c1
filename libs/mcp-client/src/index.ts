// The one adapter over @modelcontextprotocol/sdk's client side (see docs/decisions for the SDK generation).
// A curated surface: named exports only, added here as the lib grows.
export {};
