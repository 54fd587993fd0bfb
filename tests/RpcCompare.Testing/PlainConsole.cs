using Spectre.Console;

namespace RpcCompare.Testing;

/// <summary>A Spectre console writing plain text (no colour, no ANSI, 200 columns) into a writer, for the runner's and the load command's output in tests.</summary>
public static class PlainConsole
{
    public static IAnsiConsole Into(TextWriter writer)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(writer),
        });
        console.Profile.Width = 200;
        return console;
    }
}
