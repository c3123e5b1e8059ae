// The public face of the core: pure, no editor API, runs in Node, the extension host and a browser worker.
export { checkBytes, type BytesResult } from './bytes';
export { checkTextChunked, yieldToLoop, type ChunkOptions } from './chunked';
export { checkText, lineStandsAlone, TraceChecker, type CheckOptions, type FileResult, type CheckedSession, type SeverityOverrides } from './engine';
export { loadContracts, type ContractFile, type ContractFinding, type LoadedContracts } from './contracts/load';
export { emptyContracts, type ContractSet, type ToolContract } from './contracts/types';
export type { Profile } from './contracts/compile';
export { CODES, CHECKS, type CodeInfo } from './checks';
export { ADAPTERS, SHAPE_READER, adapterById, claims, readerIds, type FormatAdapter } from './formats';
export { LineIndex } from './parse/reader';
export { spanOf } from './parse/doc';
export type * from './model';
export { RunCollector, summarizeRun, checkFixture, compareRuns, compareFails, failingNewFindings, mockCoverage, shapeLabel, type RunOptions, type RunSummary, type RunFile, type RunFileSink, type RunTool, type RunShape, type RunFinding, type ExampleCall, type Position, type RunComparison, type SideStats, type ToolComparison, type ShapeComparison, type CompareFailOn, type MockCoverage, type CoverageTool, type UncoveredShape } from './report/compare';
