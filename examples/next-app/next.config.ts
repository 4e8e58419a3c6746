// next.config.ts
import type { NextConfig } from 'next';

const nextConfig: NextConfig = { cacheComponents: true, partialPrefetching: true };
export default nextConfig;
