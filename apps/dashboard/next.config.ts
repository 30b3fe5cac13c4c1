import { join } from 'node:path';
import type { NextConfig } from 'next';

// The repository root holds the one node_modules and lockfile of the monorepo: Turbopack resolves from there,
// and the standalone output traces from there so the Docker image gets exactly the files the server needs.
const repositoryRoot = join(__dirname, '..', '..');

// The Docker build asks for the standalone server (a small image without the whole node_modules); `npm start`
// runs `next start`, which warns when the build was standalone, so the local build stays a regular one.
const standalone = process.env.DASHBOARD_STANDALONE === '1';

export const nextConfig: NextConfig = {
  ...(standalone ? { output: 'standalone' as const } : {}),
  outputFileTracingRoot: repositoryRoot,
  turbopack: { root: repositoryRoot },
  poweredByHeader: false,
  reactStrictMode: true,
};

// Next.js loads its config through the module's default export.
export default nextConfig;
