using RpcCompare.Runner;
using Spectre.Console;

return await RunnerCommand.Create(AnsiConsole.Console).Parse(args).InvokeAsync();
