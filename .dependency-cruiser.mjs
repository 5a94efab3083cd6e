/**
 * The house: which room may import which (docs/ARCHITECTURE.md, "Rooms"). test/house.test.ts runs
 * these rules over the repository and fails naming each offending import; `npm exec -- depcruise
 * --config .dependency-cruiser.mjs functions lib generated infra local ops web tools bench test`
 * reports the same from the command line.
 *
 * Top level: functions → lib; infra, local and ops → lib (and web's build); lib imports none of them;
 * web imports only lib/contract, generated/ and itself; bench, test and tools import anything.
 * Inside lib: functions → lib/http → lib/<capability> → lib/db, each importing only downward;
 * lib/contract (the API as its clients see it: the response and error schemas, the headers' forms,
 * the role groups, how a scanned code is read) is imported by the domain, lib/http, the docs
 * (lib/openapi) and the app, and imports none of them; no import circle anywhere.
 */

/** The capabilities: one room each in lib/. */
const CAPABILITIES = 'box|location|location-register|zongpai|order|events|label';
/** The domain: the capabilities, with the rules and the error catalogue they share. */
const DOMAIN = `^lib/(${CAPABILITIES}|rules|errors)/|^lib/(config|runtime)\\.ts$`;
const TOP_LEVEL_ABOVE_LIB = '^(functions|infra|local|ops|web|tools|bench|test)/';

const rules = [
  {
    name: 'no-circular',
    comment: 'An import circle: each room imports only downward.',
    from: {},
    to: { circular: true },
  },
  {
    name: 'resolvable',
    comment: 'Every relative import names a file that exists (as written, with its .ts or .tsx extension).',
    from: {},
    to: { couldNotResolve: true, path: '^\\.\\.?/' },
  },
  {
    name: 'lib-imports-no-top-level-room',
    comment:
      'lib/ is what the functions run: it imports neither functions, infra, local, ops, web, tools, bench nor test.',
    from: { path: '^lib/' },
    to: { path: TOP_LEVEL_ABOVE_LIB },
  },
  {
    name: 'functions-import-only-lib',
    comment: 'A function file is a route or a task over lib/.',
    from: { path: '^functions/' },
    to: { path: TOP_LEVEL_ABOVE_LIB, pathNot: '^functions/' },
  },
  {
    name: 'deployed-and-local-import-no-tools',
    comment: 'infra, local and ops do not import the benchmarks, the tests or the tools.',
    from: { path: '^(infra|local|ops)/' },
    to: { path: '^(bench|test|tools)/' },
  },
  {
    name: 'infra-imports-no-local-runtime',
    comment: 'What deploys does not import the local runtime or the ops commands.',
    from: { path: '^infra/' },
    to: { path: '^(local|ops)/' },
  },
  {
    name: 'web-imports-only-contract',
    comment: 'The app imports only lib/contract, generated/ and its own files.',
    from: { path: '^web/', pathNot: '^web/test/' },
    to: { path: '^(functions|infra|local|ops|lib|tools|bench|test)/', pathNot: '^lib/contract/' },
  },
  {
    name: 'domain-imports-no-http',
    comment: 'The domain (lib/<capability>, rules, errors, config), lib/db and lib/contract sit below lib/http.',
    from: { path: `${DOMAIN}|^lib/(db|contract)/` },
    to: { path: '^lib/http/' },
  },
  {
    name: 'db-imports-no-domain',
    comment: 'lib/db is the bottom of lib: it imports no capability, no HTTP, no docs, no contract.',
    from: { path: '^lib/db/' },
    to: { path: `^lib/(${CAPABILITIES}|http|openapi|contract)/` },
  },
  {
    name: 'only-docs-import-docs',
    comment:
      'The docs assembly (lib/openapi) imports the contract, never the reverse; the domain and HTTP import the contract, not the docs.',
    from: { path: `${DOMAIN}|^lib/(db|contract|http)/|^lib/runtime\\.ts$` },
    to: { path: '^lib/openapi/' },
  },
  {
    name: 'contract-imports-only-catalogue',
    comment:
      'The contract is the API as its clients see it (schemas over the error catalogue, the headers, the role groups, how a scan is read), nothing else of lib.',
    from: { path: '^lib/contract/' },
    to: { path: '^lib/', pathNot: '^lib/contract/|^lib/errors/catalogue\\.ts$' },
  },
  {
    name: 'docs-import-http-types-only',
    comment: 'The docs read route declarations as types; a value from lib/http is an upward import.',
    from: { path: '^lib/openapi/' },
    to: { path: '^lib/http/', dependencyTypesNot: ['type-only'] },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: rules.map((rule) => ({ severity: 'error', ...rule })),
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|web/dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Imports name their .ts and .tsx files (allowImportingTsExtensions); resolve those as written.
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
