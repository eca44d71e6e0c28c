/** The patterns' answers to what a final state means for a branch or a child (see FrameEndings in cursor.ts). */
import type { FrameEndings } from '../cursor.js';
import { branchReachedFinal } from './fork.js';
import { completeChild } from './invoke.js';

export const FRAME_ENDINGS: FrameEndings = { branchReachedFinal, completeChild };
