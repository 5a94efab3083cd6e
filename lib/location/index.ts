export { makeCargoFinder, makeScanRecorder } from './locations.ts';
export { makeLocationContent } from './content.ts';
export {
  makeCargoLocationSchemas,
  makeLocationContentSchemas,
  makeLocationSchemas,
  makeScanSchemas,
  makeScanVoidSchemas,
} from './schemas.ts';
export { makeScanVoider } from './void.ts';
