// The public face of the core: pure, no editor API, runs in Node, the extension host and a browser worker.
export { checkBytes, checkDocumentStream, DEFAULT_STREAM_LIMITS, ReadLimit, type BytesResult, type StreamLimits, type StreamedDocument } from './bytes';
export { checkTextChunked, yieldToLoop, type ChunkOptions } from './chunked';
export { LineIndependentTrace, lineModel, type LineChange, type LineSource, type PatchStats } from './incremental';
export { completeLines, GrowingTrace, growingTrace, type Growing } from './append';
export { checkPlan, IN_PLACE_LIMIT, type CheckHost, type CheckPlan } from './plan';
export { checkText, lineStandsAlone, TraceChecker, type CheckOptions, type CheckerState, type FileResult, type CheckedSession, type SeverityOverrides } from './engine';
export { loadContracts, type ContractFile, type ContractFinding, type LoadedContracts } from './contracts/load';
export { emptyContracts, type ContractSet, type ToolContract } from './contracts/types';
export type { Profile } from './contracts/compile';
export { CODES, CHECKS, type CodeInfo } from './checks';
export { ADAPTERS, SHAPE_READER, adapterById, claims, readerIds, type FormatAdapter } from './formats';
export { JSONL_NAME, LineIndex, readsAsLines } from './parse/reader';
export { spanOf } from './parse/doc';
export type * from './model';
export { RunCollector, summarizeRun, checkFixture, compareRuns, compareFails, failingNewFindings, mockCoverage, shapeLabel, type RunOptions, type RunSummary, type RunFile, type RunFileSink, type RunTool, type RunShape, type RunFinding, type ExampleCall, type Position, type RunComparison, type SideStats, type ToolComparison, type ShapeComparison, type CompareFailOn, type MockCoverage, type CoverageTool, type UncoveredShape } from './report/compare';
export { toDiagnostic, type ReportDiagnostic } from './report/model';
// The report as the CLI writes it, file by file (src/cli/report-run.ts, src/cli/worker.ts).
export { addToSummary, emptySummary, hasFindingsAtOrAbove, type Report, type ReportFile } from './report/model';
export { jsonWriter, jsonlWriter } from './report/json';
export { sarifWriter } from './report/sarif';
export { textWriter } from './report/text';
export { markdownWriter, type LinkTo } from './report/markdown';
export { renderTableMarkdown } from './report/table-render';
export type { ReportSummary, ReportWriter } from './report/writer';
export { applyBaseline, buildBaseline, parseBaseline, renderBaseline, type Baseline } from './baseline';
export { isIgnored, type IgnoreRule } from './config';
export { isPlainObject, type Obj } from './objects';
export { TRACE_NAME, walkSkips } from './names';
