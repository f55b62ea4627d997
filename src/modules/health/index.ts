/** Liveness (`/health`) and readiness (`/ready`: the store, and whether search is warm): public, for orchestrators. */
export { healthRoutes, type SearchReadiness } from './health.routes.ts';
