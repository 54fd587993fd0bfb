using System.Diagnostics;
using Spectre.Console;

namespace RpcCompare.Runner;

/// <summary>
/// Live progress: which suite, binding and trial is running and how long is left. A live bar on
/// a terminal; one line per finished cell when output is redirected (CI, logs).
/// </summary>
internal sealed class RunProgress
{
    private readonly IAnsiConsole _console;
    private readonly Stopwatch _clock = new();
    private double _plannedSeconds;
    private double _doneSeconds;
    private ProgressTask? _task;

    public RunProgress(IAnsiConsole console, double plannedSeconds)
    {
        _console = console;
        _plannedSeconds = plannedSeconds;
    }

    private bool Interactive => _console.Profile.Capabilities.Interactive;

    /// <param name="body">Gets a callback: (new description or null, planned seconds just finished).</param>
    public async Task RunAsync(Func<Action<string?, double>, Task> body)
    {
        _clock.Start();
        if (!Interactive)
        {
            _console.WriteLine($"Measuring: about {_plannedSeconds:0} s planned.");
            await body((_, seconds) => _doneSeconds += seconds);
            return;
        }

        await _console.Progress()
            .AutoClear(true)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new RemainingTimeColumn(), new SpinnerColumn())
            .StartAsync(async context =>
            {
                var task = _task = context.AddTask("starting", maxValue: _plannedSeconds);
                await body((description, seconds) =>
                {
                    if (description is not null)
                    {
                        task.Description = Markup.Escape(description);
                    }

                    task.Increment(seconds);
                });
                task.Value = task.MaxValue;
            });
    }

    /// <summary>More work than planned (a row's extra trials under the stopping rule): the plan grows, so the bar and "left" stay true.</summary>
    public void Extend(double seconds)
    {
        _plannedSeconds += seconds;
        if (_task is not null)
        {
            _task.MaxValue += seconds;
        }
    }

    /// <summary>Reports a finished cell (redirected output only; the live bar shows it otherwise).</summary>
    public void Completed(string line)
    {
        if (Interactive)
        {
            return;
        }

        var left = Math.Max(0, _plannedSeconds - _doneSeconds);
        _console.WriteLine($"{line}  ({_clock.Elapsed.TotalSeconds:0} s elapsed, about {left:0} s left)");
    }
}
