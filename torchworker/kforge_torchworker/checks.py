"""The judge's comparisons of an evaluation (a mixin of evaluate.Evaluation): one call's outputs against the
reference's, several calls on the same inputs at once, and the inputs' bitwise check. Each updates the
evaluation's `verification` figures and raises Verdict('incorrect') naming the first difference."""

from . import spec


class Verdict(Exception):
    def __init__(self, verdict, message, **extra):
        super().__init__(message)
        self.verdict, self.message, self.extra = verdict, message, extra


class Checks:
    """Needs of the evaluation: verification (dict), task (spec.TorchTask), cand_name, ref_name, device."""

    def names(self, count):
        names = [o['name'] for o in self.task.outputs]
        return names[:count] + ['out%d' % i for i in range(len(names), count)]

    def check(self, expected, got, phase, trial_seed):
        """Compares one call; raises Verdict('incorrect') on a mismatch. Returns nothing."""
        v = self.verification
        names = self.names(len(expected))
        for i, e in enumerate(expected):
            if not hasattr(e, 'dtype'):
                raise Verdict('load_error', '%s: the reference forward returned a %s as output %d, not a tensor'
                              % (self.ref_name, e, i))
        if len(got) != len(expected):
            v['reason'] = '%s: step forward (%s): %d outputs, the reference has %d' % (
                self.cand_name, phase, len(got), len(expected))
            v['mismatches'] += 1
            raise Verdict('incorrect', v['reason'])
        v['calls_compared'] += 1
        for i, (e, g) in enumerate(zip(expected, got)):
            r = spec.compare(names[i], g, e, self.task.tolerance,
                             self.device if self.device.startswith('cuda') else None)
            if r['problem']:
                v['mismatches'] += 1
                v['reason'] = '%s: step forward (%s): %s' % (self.cand_name, phase, r['problem'])
                raise Verdict('incorrect', v['reason'])
            self.add_figures(i, names[i], r)
            if r['first'] is not None:
                first = dict(r['first'], trial=phase, seed=trial_seed)
                v['first_mismatch'] = first
                v['reason'] = '%s: output %s differs at %s (%s): expected %s, got %s; %d mismatches' % (
                    self.cand_name, names[i], first['coords'], phase, first['expected'], first['got'],
                    r['mismatches'])
                raise Verdict('incorrect', v['reason'])

    def check_calls(self, expected, calls, phase_of):
        """check() of several calls on the same inputs (a timed batch's kept calls): each output compared once,
        stacked over the calls, instead of once per call (on a CUDA worker a comparison is about 15 kernels and a
        synchronisation; 256 calls a batch made the checks most of a small task's timing). Any problem and the
        calls are checked one by one, so the verdict and its message name the first wrong call."""
        import torch
        v = self.verification
        tensors = all(hasattr(e, 'dtype') for e in expected) and all(
            len(c) == len(expected) and all(isinstance(g, torch.Tensor) and g.dtype == e.dtype and
                                            tuple(g.shape) == tuple(e.shape) for g, e in zip(c, expected))
            for c in calls)
        reports = []
        if len(calls) > 1 and tensors:
            names = self.names(len(expected))
            device = self.device if self.device.startswith('cuda') else None
            for i, e in enumerate(expected):
                stacked = torch.stack([c[i].to(e.device) for c in calls])
                r = spec.compare(names[i], stacked, e.unsqueeze(0).expand_as(stacked), self.task.tolerance, device)
                if r['problem'] or r['mismatches']:
                    reports = []
                    break
                reports.append(r)
        if not reports:
            for j, c in enumerate(calls):
                self.check(expected, c, phase_of(j), None)
            return
        v['calls_compared'] += len(calls)
        for i, r in enumerate(reports):
            self.add_figures(i, r['name'], r)

    def add_figures(self, i, name, report):
        """One comparison's figures (spec.compare) added to the evaluation's and to output i's."""
        v = self.verification
        if len(v['outputs']) <= i:
            v['outputs'].append({'name': name, 'mismatches': 0, 'max_abs_err': 0.0, 'max_rel_err': 0.0,
                                 'nan_count': 0, 'inf_count': 0})
        for figures in (v, v['outputs'][i]):
            for key in ('mismatches', 'nan_count', 'inf_count'):
                figures[key] += report[key]
            figures['max_abs_err'] = max(figures['max_abs_err'], report['max_abs_err'])
            figures['max_rel_err'] = max(figures['max_rel_err'], report['max_rel_err'])

    def mutated(self, before, after):
        tensor_args = [a for a in self.task.args if 'value' not in a]
        if len(before) != len(after):
            return ['(%d tensors back for %d)' % (len(after), len(before))]
        return [tensor_args[i % len(tensor_args)]['name'] for i, (b, a) in enumerate(zip(before, after))
                if not spec.identical(b, a)]
