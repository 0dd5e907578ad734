const fs=require('fs');const dir=process.argv[2]||'scratch/prof';const f=fs.readdirSync(dir).filter(x=>x.endsWith('.cpuprofile'))[0];
const p=JSON.parse(fs.readFileSync(dir+'/'+f));const self=new Map();const byId=new Map(p.nodes.map(n=>[n.id,n]));
const dt=p.timeDeltas;const counts=new Map();p.samples.forEach((s,i)=>counts.set(s,(counts.get(s)||0)+(dt[i]||0)));
for(const [id,t] of counts){const n=byId.get(id);const k=n.callFrame.functionName+' '+n.callFrame.url.split('node_modules/').pop()+':'+n.callFrame.lineNumber;self.set(k,(self.get(k)||0)+t);}
[...self].sort((a,b)=>b[1]-a[1]).slice(0,25).forEach(([k,t])=>console.log((t/1000).toFixed(0).padStart(6),k));
