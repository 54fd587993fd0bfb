using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace RpcCompare.Testing;

/// <summary>
/// Keeps every line logged at <see cref="Minimum"/> or above as "Level Category: message", so a
/// test can check that an event is logged, and logged once.
/// </summary>
public sealed class CapturedLog(LogLevel minimum = LogLevel.Information) : ILoggerProvider
{
    private readonly ConcurrentQueue<string> _lines = new();

    public LogLevel Minimum { get; } = minimum;

    public IReadOnlyList<string> Lines => [.. _lines];

    /// <summary>The lines containing <paramref name="text"/>.</summary>
    public IReadOnlyList<string> Matching(string text) => [.. _lines.Where(l => l.Contains(text, StringComparison.Ordinal))];

    /// <summary>Adds this provider to a host's services, letting <see cref="Minimum"/> through whatever level the host set.</summary>
    public void AddTo(IServiceCollection services)
    {
        services.AddSingleton<ILoggerProvider>(this);
        services.Configure<LoggerFilterOptions>(o => o.MinLevel = Minimum);
    }

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    private sealed class Logger(CapturedLog log, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= log.Minimum;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel))
            {
                log._lines.Enqueue($"{logLevel} {category}: {formatter(state, exception)}");
            }
        }
    }
}
