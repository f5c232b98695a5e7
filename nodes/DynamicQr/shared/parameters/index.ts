/** Reading node parameters by their declared types (reader.ts says the rules). */
export type { Field } from './fieldChecker';
export { nodeParameters, ParameterReader } from './reader';
export { describeValue, isBlank, isIsoDate } from './values';
