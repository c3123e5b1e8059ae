// Corpus expectations: langchain/ (see expect.ts).
import { type Expectation } from './expect';

export const langchain: Record<string, Expectation> = {
  'langchain/langsmith_py_wrap_openai_.json': {
    why: 'a LangSmith ingest payload {post, patch}; the one LLM run answered in text (tool_calls null)',
    format: 'langsmith', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
};
