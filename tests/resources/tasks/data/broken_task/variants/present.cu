// Not compiled: the task is rejected before compilation.
