// The one list of format adapters, in the order they are asked. More specific formats come first.
import type { FormatAdapter } from './adapter';
import { anthropic } from './anthropic';
import { calls } from './calls';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';

export const ADAPTERS: readonly FormatAdapter[] = [openaiResponses, anthropic, openaiChat, calls];

export type { FormatAdapter, LineState } from './adapter';
