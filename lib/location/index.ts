export { makeCargoFinder, makeScanRecorder } from './locations.ts';
export { makeLocationSchemas } from './schemas.ts';
