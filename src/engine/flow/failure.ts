/**
 * A state that failed without an exit code of its own (an undefined
 * variable, a switch with no match, a sub-flow that cannot load, an output
 * that cannot be written): the flow ends `failed` with FAILURE_EXIT and a
 * message naming the cause (docs/flows.md).
 */
export class StateFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFailure';
  }
}

export const FAILURE_EXIT = 1;
