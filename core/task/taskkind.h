#pragma once
// What a task's reference is: a CUDA kernel, or a PyTorch Model (its modules run in kforge-worker's module hosts).
// Read once from task.json's "kind" where a task is loaded (Task, TaskRecord) and passed on typed.
#include <QByteArray>
#include <QJsonObject>

namespace kforge {

enum class TaskKind { Cuda, Torch };

// task.json's "kind" ("torch"), Cuda when absent, for another word or when the text does not parse.
TaskKind taskKindOf(const QByteArray &taskJson);
TaskKind taskKindOf(const QJsonObject &taskJson);

} // namespace kforge
