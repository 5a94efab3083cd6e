import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadRoutes } from './routes.ts';
import { CargoStack } from './stack.ts';
import { readSettings } from './settings.ts';

/**
 * The CDK app (`cdk.json`: `npx tsx infra/app.ts`). Settings come from CDK context or `CARGO_*`
 * environment variables (see infra/settings.ts and docs/DEPLOYMENT.md); cdk-nag's AWS Solutions checks
 * run on every synth and fail it on any finding that is not acknowledged with a reason.
 */
await loadRoutes();
const app = new App();
const settings = readSettings((key) => app.node.tryGetContext(key), process.env);

// Environment-agnostic: it deploys to the account and region of the credentials `cdk deploy` uses,
// and synthesizes offline (no availability-zone lookups).
new CargoStack(app, settings.stackName, { settings });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
