import { config } from '../config.ts';
import { fields } from '../runtime.ts';
import { makeLocationSchemas } from './schemas.ts';

export { makeCargoFinder, makeScanRecorder } from './locations.ts';

/** The location routes' schemas for this process's configuration. */
export const locationSchemas = /* @__PURE__ */ makeLocationSchemas(config, fields);
