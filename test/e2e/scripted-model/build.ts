// This test-only extension as a VSIX (built once per test process, like the in-host runner).
import { testExtensionVsix } from '../harness';

export function scriptedModelVsix(): Promise<string> {
  return testExtensionVsix(__dirname);
}
