/** Liveness (`/health`) and store readiness (`/ready`): public, for orchestrators. */
export { healthRoutes } from './health.routes.ts';
