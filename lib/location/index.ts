export { makeCargoFinder, makeScanRecorder } from './locations.ts';
export { makeLocationContent } from './content.ts';
export { makeLocationSchemas } from './schemas.ts';
export { makeScanVoider, recordVersion } from './void.ts';
