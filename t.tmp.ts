import { EXPORT_CHARTS } from './test/unit/helpers/export-charts';
import { exportWorkflow } from './src/engine/index';
import { readPlantUml } from './test/unit/helpers/plantuml-check';
import * as fs from 'node:fs';
for (const wf of EXPORT_CHARTS) { const t = exportWorkflow(wf, 'plantuml'); try { const d = readPlantUml(t); console.log(wf.id, d.states.size, d.links.length); } catch (e) { console.log(wf.id, 'ERR', (e as Error).message); } }
for (const f of fs.readdirSync('/tmp/hf-baseline').filter(f => f.endsWith('.plantuml'))) { try { readPlantUml(fs.readFileSync('/tmp/hf-baseline/' + f, 'utf8')); } catch (e) { console.log(f, 'ERR', (e as Error).message); } }
