import { loadShellParser } from './dist/src/shell/parser.js';
const p = await loadShellParser();
const t = p.parse(process.argv[2]);
function dump(n, d){ console.log(' '.repeat(d*2)+n.type+(n.childCount?'':' '+JSON.stringify(n.text))+(n.type==='expansion'?' '+JSON.stringify(n.text):'')); for (let i=0;i<n.childCount;i++) dump(n.child(i), d+1); }
dump(t.rootNode,0);
