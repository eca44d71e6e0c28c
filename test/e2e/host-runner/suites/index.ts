// Every in-host suite, bundled into the runner. Add a suite file and import it here.
import './smoke';
import './diagnostics';
import './language-server';
import './lm-tools';
