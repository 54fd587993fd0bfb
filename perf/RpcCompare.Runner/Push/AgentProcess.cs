using System.Diagnostics;
using System.Text;
using System.Text.Json;
using RpcCompare.PushAgent;

namespace RpcCompare.Runner.Push;

/// <summary>One subscriber process (RpcCompare.PushAgent), driven one command at a time over its stdin and stdout.</summary>
internal sealed class AgentProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _errors = new();

    private AgentProcess(Process process)
    {
        _process = process;
    }

    /// <param name="serverThumbprint">The TLS host's certificate to pin, passed as --tls-thumbprint; null for plaintext.</param>
    public static AgentProcess Start(string? serverThumbprint = null)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RpcCompare.PushAgent.dll"));
        if (serverThumbprint is not null)
        {
            start.ArgumentList.Add("--tls-thumbprint");
            start.ArgumentList.Add(serverThumbprint);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start RpcCompare.PushAgent.");
        var agent = new AgentProcess(process);
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                lock (agent._errors)
                {
                    agent._errors.AppendLine(line);
                }
            }
        };
        process.BeginErrorReadLine();
        return agent;
    }

    /// <summary>Sends a command and waits for its answer, at most <paramref name="timeout"/>.</summary>
    public async Task<AgentEvent> SendAsync(AgentCommand command, TimeSpan timeout)
    {
        await _process.StandardInput.WriteLineAsync(JsonSerializer.Serialize(command, AgentJson.Options));
        await _process.StandardInput.FlushAsync();
        using var cancel = new CancellationTokenSource(timeout);
        string? line;
        try
        {
            line = await _process.StandardOutput.ReadLineAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"The push agent did not answer '{command.Command}' within {timeout.TotalSeconds:0} s.{Errors()}");
        }

        return line is null
            ? throw new InvalidOperationException($"The push agent exited (code {(_process.HasExited ? _process.ExitCode : -1)}) while asked to '{command.Command}'.{Errors()}")
            : JsonSerializer.Deserialize<AgentEvent>(line, AgentJson.Options) ?? throw new InvalidDataException($"The push agent answered '{line}'.");
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!_process.HasExited)
            {
                await SendAsync(new AgentCommand("exit"), TimeSpan.FromSeconds(30));
                await _process.WaitForExitAsync(new CancellationTokenSource(TimeSpan.FromSeconds(10)).Token);
            }
        }
        catch (Exception exception) when (exception is TimeoutException or InvalidOperationException or IOException or OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }

    private string Errors()
    {
        lock (_errors)
        {
            return _errors.Length == 0 ? "" : $" Its stderr: {_errors.ToString().Trim()}";
        }
    }
}
