#include "core/llm/pricetable.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace kforge {

void PriceTable::set(const ModelPrice &price)
{
    remove(price.model);
    m_prices.append(price);
}

void PriceTable::remove(const QString &model)
{
    m_prices.removeIf([&](const ModelPrice &p) { return p.model == model; });
}

std::optional<ModelPrice> PriceTable::find(const QString &model) const
{
    std::optional<ModelPrice> best;
    qsizetype bestLen = -1;
    for (const ModelPrice &p : m_prices) {
        if (p.model == model)
            return p;
        if (p.model.endsWith(QLatin1Char('*'))) {
            const QStringView prefix = QStringView(p.model).chopped(1);
            if (model.startsWith(prefix) && prefix.size() > bestLen) {
                best = p;
                bestLen = prefix.size();
            }
        }
    }
    return best;
}

std::optional<double> PriceTable::cost(const QString &model, const LlmUsage &usage) const
{
    const auto price = find(model);
    if (!price || !usage.reported)
        return std::nullopt;
    return (double(usage.promptTokens) * price->inputPerMTok + double(usage.completionTokens) * price->outputPerMTok) / 1e6;
}

QByteArray PriceTable::toJson() const
{
    QJsonObject o;
    for (const ModelPrice &p : m_prices)
        o.insert(p.model,
                 QJsonObject{{QStringLiteral("input"), p.inputPerMTok}, {QStringLiteral("output"), p.outputPerMTok}});
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

PriceTable PriceTable::fromJson(const QByteArray &json, QString *error)
{
    PriceTable t;
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = QCoreApplication::translate("kforge::PriceTable", "The price table is not a JSON object: %1")
                         .arg(err.errorString());
        return t;
    }
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonObject p = it.value().toObject();
        const QJsonValue in = p.value(QLatin1String("input"));
        const QJsonValue out = p.value(QLatin1String("output"));
        if (!in.isDouble() || !out.isDouble() || in.toDouble() < 0 || out.toDouble() < 0) {
            if (error)
                *error = QCoreApplication::translate("kforge::PriceTable",
                                                     "The price of '%1' needs non-negative numbers \"input\" and "
                                                     "\"output\" ($ per million tokens).")
                             .arg(it.key());
            return PriceTable{};
        }
        t.set({it.key(), in.toDouble(), out.toDouble()});
    }
    if (error)
        error->clear();
    return t;
}

void PriceTable::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("llm/prices"), QString::fromUtf8(toJson()));
}

PriceTable PriceTable::load(QSettings &settings)
{
    return fromJson(settings.value(QStringLiteral("llm/prices"), QStringLiteral("{}")).toString().toUtf8());
}

} // namespace kforge
